import "reflect-metadata";
import { container } from "tsyringe";
import { McpApp } from "roundtrip-mcp";
import { GreeterTools } from "./greeter";

// Bootstrap: metadata is read and schemas are built once, here. Bad declarations fail now,
// with a message naming the class and method.
const app = McpApp.create({
  name: "greeter",
  version: "1.0.0",
  components: [GreeterTools],
  container: container.createChildContainer(),
  state: { ephemeral: true }, // local development only; see the state-and-security guide
});

if (process.argv.includes("--stdio")) {
  app.serveStdio();
} else {
  void app.listen({ port: Number(process.env.PORT ?? 3000) }).then((listener) => {
    console.error(`listening on ${listener.url}`);
  });
}
