// Server-sent events over fetch: EventSource cannot POST, so the page reads
// the response body itself and splits it into events here (WHATWG HTML
// "event stream interpretation", minus reconnection).

/** SSEParser turns chunks of an event stream into {event, data} objects. */
export class SSEParser {
  constructor() {
    this.buf = '';
    this.event = '';
    this.data = [];
  }

  /**
   * push feeds the next chunk of text and returns the events it completed.
   * @param {string} chunk
   * @returns {{event: string, data: string}[]}
   */
  push(chunk) {
    this.buf += chunk;
    const out = [];
    // A trailing "\r" may be the first half of "\r\n": keep it for the next chunk.
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buf);
      if (!m || (m[0] === '\r' && m.index === this.buf.length - 1)) break;
      const line = this.buf.slice(0, m.index);
      this.buf = this.buf.slice(m.index + m[0].length);
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    return out;
  }

  /** end flushes a final event the stream did not terminate with a blank line. */
  end() {
    const out = [];
    if (this.buf !== '') {
      const ev = this.line(this.buf.replace(/\r$/, ''));
      this.buf = '';
      if (ev) out.push(ev);
    }
    const ev = this.line('');
    if (ev) out.push(ev);
    return out;
  }

  line(line) {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = '';
        return null;
      }
      const ev = { event: this.event || 'message', data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return ev;
    }
    if (line.startsWith(':')) return null; // comment / keep-alive
    const i = line.indexOf(':');
    const field = i < 0 ? line : line.slice(0, i);
    let value = i < 0 ? '' : line.slice(i + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    return null;
  }
}

/**
 * readEvents reads an SSE response body and calls onEvent for each event.
 * @param {ReadableStream<Uint8Array>} body
 * @param {(ev: {event: string, data: string}) => void} onEvent
 */
export async function readEvents(body, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SSEParser();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const ev of parser.push(decoder.decode(value, { stream: true }))) onEvent(ev);
  }
  for (const ev of parser.push(decoder.decode())) onEvent(ev);
  for (const ev of parser.end()) onEvent(ev);
}
