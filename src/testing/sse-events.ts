/**
 * Splits complete Server-Sent Events off the front of a text buffer and returns each event's
 * `data` (its data lines joined with "\n"; events without data are skipped) and the unfinished
 * rest, to keep for the next chunk. Line endings are normalised first.
 *
 * @example const { data, rest } = takeSseData(buffer + chunk); buffer = rest;
 */
export function takeSseData(buffer: string): { data: string[]; rest: string } {
  let rest = buffer.replace(/\r\n?/g, "\n");
  const data: string[] = [];
  let end: number;
  while ((end = rest.indexOf("\n\n")) >= 0) {
    const event = rest.slice(0, end);
    rest = rest.slice(end + 2);
    const joined = event
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5))
      .join("\n");
    if (joined !== "") data.push(joined);
  }
  return { data, rest };
}
