/*
 * Pins SseDataReader, the testing kit's reader of Server-Sent Events (eventsource-parser):
 * - any stream of events, its lines ended by CRLF, LF or CR (mixed), with comments, `event`, `id`
 *   and `retry` lines, multi-line data and a data line without a space or without a colon, cut
 *   into chunks anywhere (every cut into up to three chunks of a fixed stream; generated streams
 *   cut at generated points), gives the data of each event exactly once, in order, as the whole
 *   stream read in one chunk does;
 * - a CRLF split between two chunks ends one line, not two (the defect of the reader before it:
 *   one event read as two);
 * - an event with empty data (a priming event: an id alone) yields nothing; what the stream leaves
 *   unterminated yields nothing.
 */
import fc from "fast-check";
import { SseDataReader } from "../../../src/testing/sse-events";

/** The data the reader gives for `stream` cut at `cuts` (ascending offsets). */
function readInChunks(stream: string, cuts: readonly number[]): string[] {
  const reader = new SseDataReader();
  const data: string[] = [];
  let from = 0;
  for (const cut of [...cuts, stream.length]) {
    data.push(...reader.read(stream.slice(from, cut)));
    from = cut;
  }
  return data;
}

const FIXED =
  ": a comment\r\n" +
  'event: message\r\nid: 7\r\ndata: {"a":1}\r\ndata:second line\r\n\r\n' +
  "retry: 1000\rdata: cr only\r\r" +
  "data\ndata: after an empty one\n\n" +
  "id: 8\r\n\r\n" +
  "data:  two spaces\r\n\r\n" +
  "data: unterminated";
const FIXED_DATA = ['{"a":1}\nsecond line', "cr only", "\nafter an empty one", " two spaces"];

describe("SseDataReader", () => {
  it("reads a stream in one chunk", () => {
    expect(readInChunks(FIXED, [])).toEqual(FIXED_DATA);
  });

  it("reads the same data from every cut of a stream into up to three chunks", () => {
    for (let i = 0; i <= FIXED.length; i++) {
      for (let j = i; j <= FIXED.length; j++) expect(readInChunks(FIXED, [i, j])).toEqual(FIXED_DATA);
    }
  });

  it("ends one line at a CRLF split between two chunks", () => {
    const stream = "data: a\r\ndata: b\r\n\r\n";
    expect(readInChunks(stream, [stream.indexOf("\n")])).toEqual(["a\nb"]);
  });

  it("reads generated streams cut anywhere", () => {
    const line = fc.string({ unit: "grapheme", maxLength: 12 }).filter((text) => !/[\r\n]/.test(text));
    const ending = fc.constantFrom("\r\n", "\n", "\r");
    const event = fc.record({
      data: fc.array(line, { minLength: 1, maxLength: 3 }),
      extras: fc.array(fc.constantFrom(": comment", "event: message", "id: 1", "retry: 50"), { maxLength: 2 }),
      endings: fc.array(ending, { minLength: 8, maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 6 }), (events, rawCuts) => {
        let stream = "";
        const expected: string[] = [];
        events.forEach(({ data, extras, endings }, at) => {
          const lines = [...extras, ...data.map((text) => `data: ${text}`)];
          let last = "";
          lines.forEach((text, i) => (stream += text + (last = endings[i % 7]!)));
          // The blank line: after a CR, an LF would make one CRLF with it, not a blank line; the
          // stream's last one is not a lone CR, which a reader cannot tell from half a CRLF.
          let blank = endings[7]!;
          if (last === "\r" && blank === "\n") blank = "\r";
          if (at === events.length - 1 && blank === "\r") blank = "\r\n";
          stream += blank;
          const joined = data.join("\n");
          if (joined !== "") expected.push(joined);
        });
        const cuts = [...new Set(rawCuts.map((n) => n % (stream.length + 1)))].sort((a, b) => a - b);
        expect(readInChunks(stream, cuts)).toEqual(expected);
        expect(readInChunks(stream, [])).toEqual(expected);
      }),
      { seed: 20261207, numRuns: 500 },
    );
  });
});
