// web/js/start-data.js, which build.py writes into each build (see start_data() there): the
// bridge's "version" and "variants" answers and the English strings.
export const ENGINE: { version: any; variants: Record<string, any> };
export const ENGLISH: Record<string, string>;
