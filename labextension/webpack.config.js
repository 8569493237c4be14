// Only ext-apps' AppBridge is used from the MCP SDK packages, which import each other through
// their index modules and declare no `sideEffects`: marking them free of side effects lets the
// production build leave out what AppBridge never reaches (the HTTP client, OAuth, stdio).
module.exports = {
  module: {
    rules: [
      {
        test: /[\\/]node_modules[\\/]@modelcontextprotocol[\\/](client|core)[\\/]/,
        sideEffects: false
      }
    ]
  }
};
