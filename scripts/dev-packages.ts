/**
 * `npm run dev`: the packages the browser's code imports (React, the ICU formatters, the
 * stemmers, ...), bundled once for the session into files of their own, so that a rebuild
 * of the browser's bundle after a save bundles the project's own code only. React's
 * development build was most of that bundle and of its source map, made again at every save.
 *
 * In the browser's bundle (the plugin `bundlePackages` returns), an import of such a package becomes:
 *   - an ES module package: an import of its file, `/assets/vendor-<name>-<hash>.js`, which
 *     the browser loads as it loads the bundle's chunks (a dynamic import stays lazy);
 *   - a CommonJS package (React): a module that hands over the package's exports from the
 *     packages' registry, a file every file of the bundle imports first (`banner`): a
 *     CommonJS module has no names an ES module could import, so it is reached as esbuild
 *     reaches one inside a bundle.
 * The packages are made in one build, so a package imported by others (React by React DOM)
 * is loaded once. Their files and source maps stay the same for the session (the browser
 * takes them from its cache at each reload). A package the browser's code starts to import
 * during the session is bundled with it until the next rebuild makes the packages again.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import * as esbuild from 'esbuild';

/** The global the registry file fills: each CommonJS package's exports by the name it is imported by. */
const REGISTRY = '__polysiteDevPackages';
const NAMESPACE = 'polysite-dev-package';

export type Packages = {
  /** Every file of the packages' build (with their source maps), to be written with the browser's bundle. */
  files: esbuild.OutputFile[];
  /** The browser's build options with the packages taken out (same options and packages: the same object's key). */
  options: esbuild.BuildOptions;
  /** The imports (as written) the last build of the browser's code asked for that the packages lack. */
  missing: Set<string>;
};

/** A bare import: a package, not a file (relative or absolute) nor a URL. */
const BARE = /^(?![./]|[a-z][a-z0-9+.-]*:)/i;

/**
 * Bundles the packages `options` (the browser's build) imports, and returns the options
 * that import them instead of bundling them. Null when that build does not bundle (nothing
 * to take out) or fails: the caller then builds with `options` as they are.
 */
export async function bundlePackages(options: esbuild.BuildOptions, assetsDir: string): Promise<Packages | null> {
  const alias = options.alias ?? {};
  // The project's own code with every package left out: which packages it imports, as written
  // (an alias is applied where the package is bundled, to the imports of other packages too).
  const { metafile } = await esbuild.build({
    ...options,
    alias: {},
    packages: 'external',
    sourcemap: false,
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const wanted = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const imported of output.imports) if (imported.external && BARE.test(imported.path)) wanted.add(imported.path);
  if (wanted.size === 0) return null;
  const names = fileNames(wanted);
  const common = {
    absWorkingDir: options.absWorkingDir,
    bundle: true,
    format: 'esm' as const,
    platform: 'browser' as const,
    target: options.target,
    alias,
    define: options.define,
    // The browser's banner (a compile hint for V8) as it is, before the registry's import is added.
    banner: options.banner,
    write: false,
    logLevel: 'silent' as const,
  };
  // Which packages are CommonJS: each entry file alone, what it imports left out.
  const formats = await esbuild.build({
    ...common,
    entryPoints: Object.fromEntries([...names].map(([specifier, name]) => [name, specifier])),
    outdir: assetsDir,
    metafile: true,
    plugins: [
      {
        name: 'entries-only',
        setup: (build) =>
          build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path, external: true })),
      },
    ],
  });
  const commonJs = new Set<string>();
  for (const [file, output] of Object.entries(formats.metafile.outputs)) {
    const specifier = [...names].find(([, name]) => name === basename(file, '.js'))?.[0];
    if (specifier && output.entryPoint && formats.metafile.inputs[output.entryPoint]?.format === 'cjs') commonJs.add(specifier);
  }
  const esm = [...wanted].filter((specifier) => !commonJs.has(specifier));
  const registry = [...commonJs]
    .map((specifier, n) => `import p${n} from ${JSON.stringify(specifier)};`)
    .concat(`globalThis.${REGISTRY} = { ${[...commonJs].map((specifier, n) => `${JSON.stringify(specifier)}: p${n}`).join(', ')} };`)
    .join('\n');
  const built = await esbuild.build({
    ...common,
    entryPoints: {
      ...Object.fromEntries(esm.map((specifier) => [names.get(specifier)!, specifier])),
      ...(commonJs.size > 0 && { _registry: `${NAMESPACE}:registry` }),
    },
    outdir: assetsDir,
    entryNames: 'vendor-[name]-[hash]',
    chunkNames: 'vendor-chunk-[hash]',
    splitting: true,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'none',
    plugins: [
      {
        name: 'registry',
        setup(build) {
          build.onResolve({ filter: new RegExp(`^${NAMESPACE}:registry$`) }, () => ({ path: 'registry', namespace: NAMESPACE }));
          build.onLoad({ filter: /.*/, namespace: NAMESPACE }, () => ({
            contents: registry,
            resolveDir: options.absWorkingDir,
            loader: 'js',
          }));
        },
      },
    ],
  });
  const urlOf = (output: string) => `/assets/${basename(output)}`;
  const entries = new Map<string, string>();
  let registryUrl: string | null = null;
  for (const [output, meta] of Object.entries(built.metafile.outputs)) {
    if (!meta.entryPoint || output.endsWith('.map')) continue;
    if (meta.entryPoint === `${NAMESPACE}:registry`) registryUrl = urlOf(output);
    else {
      const specifier = esm.find((candidate) => `vendor-${names.get(candidate)}-` === basename(output).replace(/[^-]+\.js$/, ''));
      if (specifier) entries.set(specifier, urlOf(output));
    }
  }
  const id = createHash('sha256')
    .update(JSON.stringify([registryUrl, [...entries]]))
    .digest('hex')
    .slice(0, 12);
  const missing = new Set<string>();
  const plugin: esbuild.Plugin = {
    // The name carries the packages' files: other packages, other options, another kept context.
    name: `polysite-dev-packages-${id}`,
    setup(build) {
      // Go's regular expressions (esbuild's) have no lookahead: the rest of BARE is checked here.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point' || !BARE.test(args.path)) return undefined;
        const specifier = args.path;
        const url = entries.get(specifier);
        if (url) return { path: url, external: true };
        if (commonJs.has(specifier)) return { path: specifier, namespace: NAMESPACE };
        // Bundled as before; made a package of its own at the next rebuild.
        if (!/[\\/]node_modules[\\/]/.test(args.importer)) missing.add(specifier);
        return undefined;
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `module.exports = globalThis.${REGISTRY}[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
  // Every file imports the registry before its own code runs: a CommonJS package is read from it as the file starts.
  const first = registryUrl ? `import ${JSON.stringify(registryUrl)};` : '';
  const banner = { ...options.banner, js: [options.banner?.js, first].filter(Boolean).join('\n') };
  return {
    files: built.outputFiles ?? [],
    options: { ...options, banner, plugins: [...(options.plugins ?? []), plugin] },
    missing,
  };
}

/** A file name for each package import (`react-dom/client`: `react-dom-client`), one of its own. */
function fileNames(specifiers: ReadonlySet<string>): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const specifier of specifiers) {
    const stem = specifier.replace(/^@/, '').replace(/[^a-z0-9]+/gi, '-');
    let name = stem;
    for (let n = 2; taken.has(name); n++) name = `${stem}-${n}`;
    taken.add(name);
    names.set(specifier, name);
  }
  return names;
}
