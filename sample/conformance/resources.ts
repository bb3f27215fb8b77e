// The resource fixtures: a text resource, a binary one and a template.
import "reflect-metadata";
import { Arg, Resource } from "roundtrip-mcp";
import { RED_PIXEL_PNG } from "./media";

export class ConformanceResources {
  @Resource({
    uri: "test://static-text",
    name: "static-text",
    description: "A static text resource",
    mimeType: "text/plain",
    ttlMs: 60_000,
    cacheScope: "public",
  })
  staticText() {
    return "This is the content of the static text resource.";
  }

  @Resource({
    uri: "test://static-binary",
    name: "static-binary",
    description: "A static binary resource (a 1x1 PNG)",
    mimeType: "image/png",
    ttlMs: 60_000,
    cacheScope: "public",
  })
  staticBinary() {
    return new Uint8Array(Buffer.from(RED_PIXEL_PNG, "base64"));
  }

  @Resource({
    uriTemplate: "test://template/{id}/data",
    name: "template-data",
    description: "JSON data for one id",
    mimeType: "application/json",
    complete: { id: ({ value }) => ["1", "2", "3", "123"].filter((id) => id.startsWith(value)) },
  })
  templateData(@Arg("id") id: string) {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }
}
