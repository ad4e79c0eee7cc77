// bench:cli's peer: lilconfig finds and loads the same JSON config by the same upward search, stopping at argv[2].
const { lilconfigSync } = require("lilconfig");

const found = lilconfigSync("dropkit", { searchPlaces: ["dropkit.config.json", "package.json"], stopDir: process.argv[2] }).search();
process.stdout.write(JSON.stringify(found.config) + "\n");
