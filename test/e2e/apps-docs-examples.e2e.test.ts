// Runs the MCP Apps guide's example test (docs/apps.md, docs/examples/apps/) as the jest test it is:
// - the tool's link under both metadata keys, the view read with its CSP, a view's call to an
//   app-only tool and a view-blind caller's complete text answer
import "../../docs/examples/apps/weather-test";
