/**
 * jest transform for the ESM-only packages of single sign-on (openid-client, oauth4webapi, jose, oidc-provider
 * and its koa): jest's CommonJS runtime cannot require ES modules before Node 24.9, while Node 20.19+ itself
 * does (require(esm)), so production loads them untouched. esbuild rewrites each file to CommonJS, cached by
 * jest like any transform.
 */
const { transformSync } = require('esbuild');

module.exports = {
  getCacheKey(source, path) {
    return require('node:crypto')
      .createHash('sha256')
      .update('esm-cjs-1\0')
      .update(path)
      .update('\0')
      .update(source)
      .digest('hex');
  },
  process(source, path) {
    const { code, map } = transformSync(source, {
      loader: 'js',
      format: 'cjs',
      target: 'node20',
      sourcefile: path,
      sourcemap: 'external',
    });
    return { code, map };
  },
};
