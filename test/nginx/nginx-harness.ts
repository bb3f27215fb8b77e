// What the load balancer suite runs: nginx from the machine's packages (Debian's nginx-light),
// in the foreground with a prefix folder of its own, serving deploy/nginx/mcp.conf.template
// rendered as the official nginx image renders its templates (envsubst of ${NAME}), in front of
// instances of the preferences sample (the built `npm start` entry) on one PostgreSQL cluster.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { startServerProcess, type TaskServer } from "../support/task-server";

const ROOT = path.resolve(__dirname, "../..");
export const TEMPLATE = path.join(ROOT, "deploy/nginx/mcp.conf.template");
export const PREFERENCES_HTTP = path.join(ROOT, "dist/sample/preferences/main-http.js");

/** nginx: NGINX_BIN, else /usr/sbin/nginx, else on PATH. */
export function findNginx(): string {
  const candidates = [
    process.env.NGINX_BIN,
    "/usr/sbin/nginx",
    ...(process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, "nginx")),
  ];
  const found = candidates.find((c) => c !== undefined && c !== "" && existsSync(c));
  if (found === undefined) throw new Error("no nginx found (NGINX_BIN, /usr/sbin/nginx, PATH); install it: apt-get install -y nginx-light");
  return found;
}

/** `${NAME}` replaced by `values[NAME]`, as envsubst does for the names it is given; any other `${...}` left is an error. */
export function render(template: string, values: Record<string, string>): string {
  const text = template.replace(/\$\{([A-Z0-9_]+)\}/g, (whole, name: string) => values[name] ?? whole);
  const left = /\$\{[A-Z0-9_]+\}/.exec(text);
  if (left !== null) throw new Error(`the template names ${left[0]}, which the suite does not set`);
  return text;
}

/** nginx in the foreground with `prefix` as its folder; the template rendered into it. */
export class NginxProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    readonly prefix: string,
  ) {}

  static async start(prefix: string, port: number, values: Record<string, string>): Promise<NginxProcess> {
    const bin = findNginx();
    for (const dir of ["conf", "logs", "tmp/body", "tmp/proxy"]) mkdirSync(path.join(prefix, dir), { recursive: true });
    writeFileSync(
      path.join(prefix, "conf/mcp.conf"),
      render(readFileSync(TEMPLATE, "utf8"), { ...values, MCP_LISTEN_PORT: `127.0.0.1:${port}` }),
    );
    // The harness's own main file (an image brings its own): logs and temporary files in the
    // prefix, and the answering instance in a response header, for the suite to know which one.
    writeFileSync(
      path.join(prefix, "conf/nginx.conf"),
      `worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log ${prefix}/logs/access.log;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  add_header X-Upstream-Addr $upstream_addr always;
  include mcp.conf;
}
`,
    );
    const args = ["-p", prefix, "-c", path.join(prefix, "conf/nginx.conf")];
    const checked = spawnSync(bin, [...args, "-t"], { encoding: "utf8" });
    if (checked.status !== 0) throw new Error(`nginx -t refused the configuration:\n${checked.stderr}`);
    const child = spawn(bin, [...args, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    for (let i = 0; i < 200; i++) {
      if (await accepts(port)) return new NginxProcess(child, port, prefix);
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGKILL");
    throw new Error(`nginx did not start listening on ${port}:\n${stderr}`);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  errorLog(): string {
    const file = path.join(this.prefix, "logs/error.log");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGQUIT");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** One instance of the preferences sample on a fixed port (nginx's upstream names it). */
export interface Instance {
  readonly port: number;
  server: TaskServer | undefined;
}

export async function startInstance(instance: Instance, env: Record<string, string>): Promise<void> {
  instance.server = await startServerProcess(PREFERENCES_HTTP, { ...env, PORT: String(instance.port) });
}
