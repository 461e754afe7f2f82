/** @tesseract.js-data/eng ships no types: it exports where its model files lie. */
declare module '@tesseract.js-data/eng' {
  export const code: string;
  export const gzip: boolean;
  export const langPath: string;
}
