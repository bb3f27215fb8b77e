/*
 * The skills extension's wire constants (SEP-2640, `io.modelcontextprotocol/skills`), as the
 * specification names them.
 */

/** The extension's identifier: the key in `capabilities.extensions`. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

/** The mime type of a directory resource (`resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = "inode/directory";

/** The name of every skill's manifest. */
export const SKILL_MANIFEST = "SKILL.md";

/** Frontmatter `metadata` keys under this prefix are reserved for MCP extensions (none is defined yet). */
export const RESERVED_METADATA_PREFIX = "io.modelcontextprotocol/";

/** Per-skill limits the specification sets: servers SHOULD NOT publish more, hosts MUST accept up to them. */
export const SKILL_LIMITS = Object.freeze({ files: 512, bytes: 16 * 1024 * 1024 });
