// Builds the agent-host image with no registry: the local node binary, the shared libraries `ldd`
// lists for it, and the agent-host program bundled into one file, imported with `docker import`.
// Tagged by content (`agent-host-runtime:<sha256 of the bundle, node's version and this script, 16 hex>`), so a
// build whose inputs did not change finds its image and returns at once.
//
//   node scripts/build-agent-image.mjs        # prints the tag; set RUNTIME_DOCKER_IMAGE to it
//
// Talks to the daemon with the docker CLI, so DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH
// apply. docker/agent-host.Dockerfile builds the same program on node:20-slim for operators whose
// builders reach a registry (docs/operations.md says which to use when).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROGRAM = join(repoRoot, 'src/agent-host/agent-host-program.ts');
export const IMAGE_REPOSITORY = 'agent-host-runtime';
/** Every image this script makes carries it (a test run removes only images with it). */
export const IMAGE_LABEL = 'agent-host.image';

/** The program as one ES module (it imports only Node's own modules). */
async function bundle() {
  const out = await build({ entryPoints: [PROGRAM], bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent' });
  return out.outputFiles[0].contents;
}

/** The node binary and every library its loader needs, as absolute paths (ldd's resolved paths). */
function nodeAndLibraries() {
  const node = realpathSync(process.execPath);
  const libs = [...execFileSync('ldd', [node], { encoding: 'utf8' }).matchAll(/(\/\S+) \(0x/g)].map((m) => m[1]);
  return { node, libs };
}

/**
 * Builds (or finds) the image and returns its tag. `env` is the docker CLI's environment
 * (DOCKER_HOST and friends); `log` hears what happens.
 */
export async function buildAgentImage({ env = process.env, log = () => {} } = {}) {
  const program = await bundle();
  // the program, the node it runs on, and this recipe (the image's layout)
  const recipe = readFileSync(fileURLToPath(import.meta.url));
  const tag = `${IMAGE_REPOSITORY}:${createHash('sha256').update(program).update(`\0${process.version}\0`).update(recipe).digest('hex').slice(0, 16)}`;
  const docker = (args, options = {}) => execFileSync('docker', args, { env, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  try {
    docker(['image', 'inspect', tag]);
    log(`${tag} is already there`);
    return tag;
  } catch {
    // not built yet
  }
  const root = mkdtempSync(join(tmpdir(), 'agent-image-'));
  try {
    const { node, libs } = nodeAndLibraries();
    const place = (from, to) => {
      mkdirSync(dirname(join(root, to)), { recursive: true });
      copyFileSync(from, join(root, to));
    };
    place(node, '/usr/local/bin/node');
    for (const lib of libs) place(realpathSync(lib), lib);
    mkdirSync(join(root, 'opt/agent-host'), { recursive: true });
    writeFileSync(join(root, 'opt/agent-host/agent-host.mjs'), program);
    // the container's tmpfs /tmp takes this folder's mode: writable by the unprivileged user (the umask would drop it)
    mkdirSync(join(root, 'tmp'));
    chmodSync(join(root, 'tmp'), 0o1777);
    const changes = [
      'CMD ["/usr/local/bin/node", "/opt/agent-host/agent-host.mjs"]',
      'WORKDIR /opt/agent-host',
      'USER 65534:65534',
      'ENV NODE_ENV=production AGENT_HOST_TRANSPORT=stdio PATH=/usr/local/bin',
      `LABEL ${IMAGE_LABEL}=${IMAGE_REPOSITORY}`,
    ].flatMap((c) => ['--change', c]);
    await new Promise((resolve, reject) => {
      const tar = spawn('tar', ['-C', root, '--owner=0', '--group=0', '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
      const imp = spawn('docker', ['import', ...changes, '-', tag], { env, stdio: [tar.stdout, 'ignore', 'pipe'] });
      let err = '';
      imp.stderr.on('data', (d) => (err += d));
      imp.on('error', reject);
      imp.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`docker import failed (${code}): ${err.trim()}`))));
    });
    log(`built ${tag}`);
    return tag;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const tag = await buildAgentImage({ log: (m) => console.error(`agent image: ${m}`) });
  console.log(tag);
}
