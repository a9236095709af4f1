// Made by the draindesign-uk-outline plugin of vite.config.ts.
declare module 'virtual:uk-outline' {
  const outline: import('./ukOutlineExtract').Outline;
  export default outline;
}
