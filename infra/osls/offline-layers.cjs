'use strict';

/**
 * Lets `osls package` run offline with a layer (serverless.yml `layers`): after zipping a layer,
 * osls asks CloudFormation for the deployed stack's hash of it, to reuse an upload that has not
 * changed — a request that needs AWS credentials. Without any, that comparison is skipped (the
 * layer counts as changed, as for a stack not deployed yet); with credentials (a deploy) osls
 * compares as before. Any other error still fails the command.
 */
class OfflineLayers {
  constructor(serverless) {
    this.hooks = {
      'before:package:compileLayers': () => {
        const compiler = serverless.pluginManager.plugins.find((p) => p.constructor && p.constructor.name === 'AwsCompileLayers');
        if (!compiler || typeof compiler.compareWithLastLayer !== 'function') {
          throw new Error('infra/osls/offline-layers.cjs: osls has no AwsCompileLayers.compareWithLastLayer; check this plugin against the osls version');
        }
        const compare = compiler.compareWithLastLayer.bind(compiler);
        compiler.compareWithLastLayer = async (layerName) => {
          try {
            return await compare(layerName);
          } catch (err) {
            if (err && err.code === 'AWS_CREDENTIALS_NOT_FOUND') return undefined;
            throw err;
          }
        };
      },
    };
  }
}

module.exports = OfflineLayers;
