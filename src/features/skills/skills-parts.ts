/*
 * The skills feature's code: required by the first `skills()` call (skills-feature.ts), so an app
 * that does not list the feature never loads it, nor its YAML parser.
 */
import path from "node:path";
import { canonicalJson } from "../../protocol/canonical-json";
import type { JsonObject } from "../../protocol/wire-types";
import type { ChangeAnnouncer } from "../feature-module";
import { RegistrationError } from "../registration-error";
import { buildCatalog, sharedNames, type SkillCatalog } from "./skill-catalog";
import { SkillFileReader, SkillResources } from "./skill-files";
import { SkillAnswers } from "./skill-methods";
import { sourceFiles } from "./skill-sources";
import type { SkillChanges, SkillsFeature } from "./skills-types";
import { SKILLS_EXTENSION } from "./skills-extension";
import { skillsSettings, type SkillsOptions, type SkillsSettings } from "./skills-options";

/** Reads, checks and compiles the catalog; every broken rule is one line of the error, naming its file. */
function compileCatalog(settings: SkillsSettings): { catalog: SkillCatalog; warnings: string[] } {
  const sources = sourceFiles(settings);
  const problems = [...sources.problems];
  const catalog = buildCatalog(sources, settings.limits, problems);
  if (problems.length > 0) {
    const where = settings.folder === undefined ? "" : ` (folder ${settings.folder})`;
    throw new RegistrationError(
      `skills: ${problems.length} problem${problems.length === 1 ? "" : "s"} in the skills${where}:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
  const warnings = [...sources.warnings, ...sharedNames(catalog).map((n) => `skills: ${n}; hosts must tell them apart by path`)];
  if (catalog.skills.length === 0) warnings.push("skills: no skills found (a skill is a folder holding a SKILL.md)");
  return { catalog, warnings };
}

/** What one app serves of the catalog, swapped together on reload. */
interface Served {
  readonly answers: SkillAnswers;
  readonly resources: SkillResources;
  readonly changes: ChangeAnnouncer;
}

function changesBetween(before: SkillCatalog, after: SkillCatalog): SkillChanges {
  const text = (catalog: SkillCatalog, uri: string) => canonicalJson(catalog.byUri.get(uri)?.entry as never);
  return {
    added: [...after.byUri.keys()].filter((uri) => !before.byUri.has(uri)),
    removed: [...before.byUri.keys()].filter((uri) => !after.byUri.has(uri)),
    changed: [...after.byUri.keys()].filter((uri) => before.byUri.has(uri) && text(before, uri) !== text(after, uri)),
  };
}

/**
 * The skills feature's part of `McpApp.describe()`: where the skills come from and each skill
 * served now (after a `reload()`, the new catalog): its name, path, `SKILL.md` URI, description,
 * scopes, file count and bytes (every file below it, a nested skill's included), and its `SKILL.md`
 * on disk or in code.
 */
function describeCatalog(catalog: SkillCatalog, settings: SkillsSettings): JsonObject {
  return {
    ...(settings.folder !== undefined && { folder: path.resolve(settings.folder) }),
    ...(settings.prefix.length > 0 && { prefix: settings.prefix.join("/") }),
    directoryRead: settings.directoryRead,
    skills: catalog.skills.map((skill) => {
      const resources = skill.entry.resources as readonly { size: number }[];
      return {
        name: skill.listed.name,
        path: skill.path,
        uri: skill.uri,
        description: skill.listed.description,
        scopes: [...skill.scopes],
        files: resources.length,
        bytes: resources.reduce((sum, r) => sum + r.size, 0),
        source: catalog.files.get(skill.uri)!.origin,
      };
    }),
  };
}

/** `skills(options)`, loaded by its first call (skills-feature.ts). */
export function skillsFeature(options: SkillsOptions): SkillsFeature {
  const settings = skillsSettings(options);
  let current: SkillCatalog | undefined;
  const served = new Set<Served>();
  const reader = new SkillFileReader(() => current!);
  const extension = settings.directoryRead ? { directoryRead: true } : {};
  return {
    name: SKILLS_EXTENSION,
    compile({ lists, listCache, scopes, logger, changes }) {
      if (current === undefined) {
        const compiled = compileCatalog(settings);
        current = compiled.catalog;
        for (const warning of compiled.warnings) logger.warn(warning);
      }
      const cache = settings.cache ?? listCache;
      const answers = new SkillAnswers(current, cache, lists, scopes);
      const resources = new SkillResources(current, reader, cache, lists, scopes);
      served.add({ answers, resources, changes });
      return {
        // Both eras: the 2025 initialize answer declares it too. Skill files are resources, so the capability comes with it.
        capabilities: () => ({ resources: { listChanged: true }, extensions: { [SKILLS_EXTENSION]: extension } }),
        methods: answers.methods(settings.directoryRead),
        resources,
        describeFeature: () => describeCatalog(current!, settings),
      };
    },
    async reload() {
      const { catalog } = compileCatalog(settings);
      const before = current;
      current = catalog;
      for (const app of served) {
        app.answers.swap(catalog);
        app.resources.swap(catalog);
      }
      const changed =
        before === undefined ? { added: [...catalog.byUri.keys()], removed: [], changed: [] } : changesBetween(before, catalog);
      if (changed.added.length + changed.removed.length + changed.changed.length > 0)
        for (const app of served) app.changes.resourcesChanged();
      return changed;
    },
  };
}
