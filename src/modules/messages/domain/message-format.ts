/**
 * The part of ICU MessageFormat the templates use: `{name}` arguments and
 * `{name, plural, =0 {…} one {…} other {…}}` with `#` for the number, plural categories from
 * Intl.PluralRules of the template's language. Apostrophes are plain text (no ICU quoting).
 * Small enough to own instead of a dependency; a template it cannot read throws at start-up (and
 * in the template test), never at send time.
 */
export type MessageValues = Record<string, string | number>;

type Part = string | { arg: string } | { arg: string; plural: Map<string, Part[]> };

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Part[] {
    const parts = this.parts(false);
    if (this.i < this.src.length) throw this.error('unexpected }');
    return parts;
  }

  private error(what: string): Error {
    return new Error(`template: ${what} at ${this.i} in "${this.src}"`);
  }

  private parts(nested: boolean): Part[] {
    const parts: Part[] = [];
    let text = '';
    while (this.i < this.src.length) {
      const ch = this.src[this.i];
      if (ch === '}') {
        if (!nested) throw this.error('unexpected }');
        break;
      }
      if (ch === '{') {
        if (text) parts.push(text);
        text = '';
        parts.push(this.argument());
        continue;
      }
      text += ch;
      this.i++;
    }
    if (text) parts.push(text);
    return parts;
  }

  private word(): string {
    const m = /^\s*([=\w]+)\s*/.exec(this.src.slice(this.i));
    if (!m) throw this.error('expected a name');
    this.i += m[0].length;
    return m[1];
  }

  private expect(ch: string): void {
    while (this.src[this.i] === ' ') this.i++;
    if (this.src[this.i] !== ch) throw this.error(`expected ${ch}`);
    this.i++;
  }

  private argument(): Part {
    this.expect('{');
    const arg = this.word();
    if (this.src[this.i] === '}') {
      this.i++;
      return { arg };
    }
    this.expect(',');
    const type = this.word();
    if (type !== 'plural') throw this.error(`unsupported argument type ${type}`);
    this.expect(',');
    const plural = new Map<string, Part[]>();
    for (;;) {
      while (this.src[this.i] === ' ') this.i++;
      if (this.src[this.i] === '}') break;
      const key = this.word();
      this.expect('{');
      plural.set(key, this.parts(true));
      this.expect('}');
    }
    this.i++;
    if (!plural.has('other')) throw this.error('a plural needs an other case');
    return { arg, plural };
  }
}

export class MessageFormat {
  private readonly parts: Part[];
  private readonly plurals: Intl.PluralRules;

  constructor(
    readonly source: string,
    readonly locale: string,
  ) {
    this.parts = new Parser(source).parse();
    this.plurals = new Intl.PluralRules(locale);
  }

  /** The arguments the template names (each must be given to format()). */
  get argumentNames(): string[] {
    const names = new Set<string>();
    const walk = (parts: Part[]) =>
      parts.forEach((p) => {
        if (typeof p === 'string') return;
        names.add(p.arg);
        if ('plural' in p) p.plural.forEach(walk);
      });
    walk(this.parts);
    return [...names];
  }

  format(values: MessageValues): string {
    return this.render(this.parts, values, undefined);
  }

  private render(parts: Part[], values: MessageValues, count: number | undefined): string {
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        out += count === undefined ? part : part.replaceAll('#', String(count));
        continue;
      }
      const value = values[part.arg];
      if (value === undefined) throw new Error(`template: no value for {${part.arg}}`);
      if (!('plural' in part)) {
        out += String(value);
        continue;
      }
      const n = Number(value);
      const branch = part.plural.get(`=${n}`) ?? part.plural.get(this.plurals.select(n)) ?? part.plural.get('other')!;
      out += this.render(branch, values, n);
    }
    return out;
  }
}
