// Runs one server scenario of the official runner against many servers in one
// Node process: `tsx fault-runs.ts SCENARIO OUT NAME=URL...` writes each
// server's checks under OUT/NAME, as `server --scenario SCENARIO -o OUT/NAME`
// would. Laid into the scratch copy of the official repository by xtask; not
// part of the contribution.
import { runServerConformanceTest } from './src/runner/server';

async function main(): Promise<void> {
  const [scenario, out, ...servers] = process.argv.slice(2);
  for (const server of servers) {
    const at = server.indexOf('=');
    const name = server.slice(0, at);
    const url = server.slice(at + 1);
    try {
      await runServerConformanceTest(url, scenario, `${out}/${name}`);
    } catch (e) {
      console.error(`${name}: ${e}`);
    }
  }
}

void main();
