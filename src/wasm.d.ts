// `import m from "./x.wasm"`: wrangler (and the vitest pool) hand such a module over compiled, as a
// WebAssembly.Module; workerd in production refuses to compile WebAssembly from bytes at run time.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
