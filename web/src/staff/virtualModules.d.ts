// Made by the draindesign-world-outline plugin of vite.config.ts.
declare module 'virtual:world-outline' {
  const outline: import('./worldOutline').WorldOutline;
  export default outline;
}
