// Made by the draindesign-uk-outline plugin of vite.config.ts.
declare module 'virtual:uk-outline' {
  const outline: import('./ukOutlineExtract').Outline;
  export default outline;
}

// Made by the draindesign-uk-gazetteer plugin of vite.config.ts from domain/rainfall/data.
declare module 'virtual:uk-gazetteer' {
  const gazetteer: import('./gazetteerData').GazetteerData;
  export default gazetteer;
}
