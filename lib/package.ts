import pkg from '../package.json';

/** Name, version and description of this build, from package.json (npm_package_* is unset under the Procfile's node). */
export const packageInfo: { name: string; version: string; description: string } = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
};
