// bench:cli's peer: cosmiconfig finds and loads the same JSON config by the same upward search, stopping at argv[2].
const { cosmiconfigSync } = require("cosmiconfig");

const found = cosmiconfigSync("dropkit", { searchPlaces: ["dropkit.config.json", "package.json"], stopDir: process.argv[2] }).search();
process.stdout.write(JSON.stringify(found.config) + "\n");
