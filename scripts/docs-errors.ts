// `npm run docs:errors`: runs the bad-input catalogue against the built CLI and writes docs/errors.md from it.

import fs from "node:fs";
import { renderErrorsDoc, runCases } from "../test/system/catalogue.js";

const results = await runCases();
fs.writeFileSync(new URL("../docs/errors.md", import.meta.url), renderErrorsDoc(results));
console.log(`docs/errors.md written from ${results.length} cases`);
