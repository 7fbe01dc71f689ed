import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX_HTTP_FILE, NGINX_SERVER_FILE } from '../../src/export/hosts/nginx.ts';
import { freePort } from '../../scripts/free-port.ts';

export type RunningNginx = { url: string; errorLog(): string; stop(): Promise<void> };

/** The real nginx: NGINX_PATH, else Debian's /usr/sbin/nginx, else the one on PATH. */
export function nginxBinary(): string {
  const candidates = [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/local/sbin/nginx'].filter(Boolean) as string[];
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  throw new Error('nginx is not installed (looked for NGINX_PATH, /usr/sbin/nginx and nginx on PATH): install it (apt-get install nginx)');
}

/**
 * Serves an exported folder with the real nginx, configured as the deploy docs say: the
 * export's http-level file in `http { }`, and a server block of ours (the address, the root)
 * that includes the export's server file. A foreground nginx with its own prefix, logs and
 * temporary folders in a new temporary folder, on a free loopback port; `stop()` ends it.
 */
export async function startNginx(exportDir: string): Promise<RunningNginx> {
  const binary = nginxBinary();
  const prefix = mkdtempSync(join(tmpdir(), 'polysite-nginx-'));
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(prefix, temp));
  const mimeTypes = ['/etc/nginx/mime.types', '/usr/local/etc/nginx/mime.types'].find((path) => existsSync(path));
  if (!mimeTypes) throw new Error("nginx's mime.types was not found in /etc/nginx");
  const port = await freePort();
  const conf = join(prefix, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 256; }
http {
    include ${mimeTypes};
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path ${prefix}/body;
    proxy_temp_path ${prefix}/proxy;
    fastcgi_temp_path ${prefix}/fastcgi;
    uwsgi_temp_path ${prefix}/uwsgi;
    scgi_temp_path ${prefix}/scgi;
    include ${join(exportDir, NGINX_HTTP_FILE)};
    server {
        listen 127.0.0.1:${port};
        root ${exportDir};
        include ${join(exportDir, NGINX_SERVER_FILE)};
    }
}
`,
  );
  const errorLog = () => (existsSync(join(prefix, 'error.log')) ? readFileSync(join(prefix, 'error.log'), 'utf8') : '');
  const child = spawn(binary, ['-p', prefix, '-e', join(prefix, 'error.log'), '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // QUIT: nginx's graceful stop, workers included.
      child.kill('SIGQUIT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(prefix, { recursive: true, force: true });
  };
  // Ready when the port takes a connection; failed if nginx exits first (a config error).
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) {
      const log = errorLog();
      await stop();
      throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${log}`);
    }
    if (await accepts(port)) break;
    if (attempt > 200) {
      await stop();
      throw new Error(`nginx did not listen on ${port}: ${stderr}${errorLog()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return { url: `http://127.0.0.1:${port}`, errorLog, stop };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
