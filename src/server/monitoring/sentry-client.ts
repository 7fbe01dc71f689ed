import { hostname } from 'node:os';
import {
  applySdkMetadata,
  captureException,
  dedupeIntegration,
  flush,
  initAndBind,
  linkedErrorsIntegration,
  requestDataIntegration,
  withScope,
} from '@sentry/core';
import { ServerRuntimeClient, type ServerRuntimeClientOptions } from '@sentry/core/server';
import {
  contextLinesIntegration,
  defaultStackParser,
  makeNodeTransport,
  nodeContextIntegration,
  systemErrorIntegration,
} from '@sentry/node';
import type { SentryConfig } from '../config.ts';

/** One server error as server-monitoring.ts hands it over. */
export type Report = {
  error: unknown;
  /** The request it happened in: its method and path, nothing of the visitor. */
  request?: { method: string; path: string };
  /** Set when nobody caught it: Sentry shows it as unhandled. */
  unhandled?: 'onunhandledrejection' | 'onuncaughtexception';
};

export type SentryClient = { capture(report: Report): void; flush(timeoutMs: number): Promise<boolean> };

/**
 * The Sentry SDK for the server's own errors, built from its core: the client that
 * @sentry/node's NodeClient extends, @sentry/node's transport, stack parser and
 * event integrations, and nothing that instruments the process. Sentry.init() from
 * @sentry/node also starts request isolation (AsyncLocalStorage, a scope and a trace
 * id per request), an HTTP server subscriber, diagnostics-channel hooks for outgoing
 * requests and a module-loader hook thread: a third of the cached throughput and
 * 45-60 MB that we never used, as we do not trace server requests. Here nothing
 * runs until an error is reported. Loaded by server-monitoring.ts after `listen`.
 */
export function createSentryClient(sentry: SentryConfig, build: string): SentryClient {
  const options: ServerRuntimeClientOptions = {
    dsn: sentry.dsn,
    environment: sentry.environment,
    release: sentry.release ?? build,
    platform: 'node',
    runtime: { name: 'node', version: process.version },
    serverName: hostname(),
    transport: makeNodeTransport,
    stackParser: defaultStackParser,
    // Errors only. 'static': no span streaming either; without tracesSampleRate no span is made.
    traceLifecycle: 'static',
    // Outcomes of dropped events would need a timer of their own; the events are what we want.
    sendClientReports: false,
    integrations: [
      dedupeIntegration(),
      linkedErrorsIntegration(),
      requestDataIntegration(),
      // Drops file paths from Node's system errors (ENOENT and the like).
      systemErrorIntegration(),
      nodeContextIntegration(),
      contextLinesIntegration(),
    ],
    // The request data we attach is a method and a path; should more ever be attached,
    // none of the visitor's cookies, headers, body or query string go out.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, httpBodies: [], urlQueryParams: false },
    // No sentry-trace/baggage on outgoing requests (nothing here instruments them anyway):
    // the relay's forwards carry only the headers it builds itself.
    tracePropagationTargets: [],
  };
  // Reported as sentry.javascript.node, which it is.
  applySdkMetadata(options, 'node');
  initAndBind(ServerRuntimeClient, options);
  return {
    capture({ error, request, unhandled }) {
      withScope((scope) => {
        if (request) scope.setSDKProcessingMetadata({ normalizedRequest: { method: request.method, url: request.path } });
        // As @sentry/node's own handlers mark them: unhandled, and a crash is fatal.
        const hint = unhandled && {
          mechanism: { type: `auto.node.${unhandled}`, handled: false },
          captureContext: { level: unhandled === 'onuncaughtexception' ? ('fatal' as const) : ('error' as const) },
        };
        captureException(error, hint);
      });
    },
    flush,
  };
}
