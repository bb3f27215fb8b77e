import { createParser } from "eventsource-parser";

/**
 * Reads the `data` of Server-Sent Events from a stream's text as it arrives, chunk by chunk, with
 * eventsource-parser (the WHATWG event stream grammar): a line ends at CRLF, LF or CR, even when a
 * chunk ends between the CR and the LF; an event ends at a blank line; its data lines are joined
 * with "\n" (one space after `data:` dropped); comments, `event`, `id` and `retry` are not data.
 * An event with empty data (a priming event that carries only an id) yields nothing: it holds no
 * message. What the stream leaves unterminated when it ends is dropped, as an EventSource drops it.
 *
 * @example const reader = new SseDataReader(); for (const data of reader.read(chunk)) messages.push(JSON.parse(data));
 */
export class SseDataReader {
  private ready: string[] = [];
  private readonly parser = createParser({
    onEvent: (event) => {
      if (event.data !== "") this.ready.push(event.data);
    },
  });

  /** The data of each event that `chunk` completed, in order. */
  read(chunk: string): string[] {
    this.parser.feed(chunk);
    const data = this.ready;
    this.ready = [];
    return data;
  }
}
