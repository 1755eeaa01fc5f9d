// web/js/build-info.js, which build.py writes into each build (see build() there).
export const BUILD: {
  version: string;
  engine: string;
  pyodide: string;
  pyodideURL: string;
  lockURL: string;
  packages: string[];
  wheelURL: string;
  wheelIntegrity: string;
  engineModules: string[];
  laterURL: string;
  laterSha256: string;
  downloads: Record<string, number>;
  stun: string[];
};
