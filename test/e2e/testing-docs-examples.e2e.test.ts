// Runs the testing guide's examples (docs/testing.md, files under docs/examples/testing/) and the
// getting-started guide's first test as the
// jest tests they are, so the guide's claims are checked, not only compiled:
// - round by round, scripted (with decline), state handling (tamper, expiry, principal,
//   capabilities), the exact wire, HTTP and stdio variants, and a ready app with a test clock
import "../../docs/examples/getting-started/greeter-test";
import "../../docs/examples/testing/round-by-round";
import "../../docs/examples/testing/automatic";
import "../../docs/examples/testing/state-handling";
import "../../docs/examples/testing/raw";
import "../../docs/examples/testing/boundaries";
import "../../docs/examples/testing/ready-app";
