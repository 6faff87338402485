/** JUnit output is well-formed XML 1.0 whatever the names hold. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeXml } from '../../src/report/check-junit.js';

/** W3C XML 1.0, 2.2: Char ::= #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
const onlyXmlChars = (text: string): boolean => /^(?:[\t\n\r\u0020-\uD7FF\uE000-\uFFFD]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$/.test(text);

const doc = (name: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<testcase name="${escapeXml(name)}">${escapeXml(name)}</testcase>`;

describe('escapeXml', () => {
  it('replaces what XML 1.0 forbids (C0 controls, U+FFFE/U+FFFF, lone surrogates) so the file parses', () => {
    const hostile = `a\u0000b\u0001\u0008\u000B\u000C\u000E\u001F\uFFFE\uFFFF\uD800x\uDC00<&>"'`;
    expect(XMLValidator.validate(doc(hostile))).toBe(true);
    expect(onlyXmlChars(doc(hostile))).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, processEntities: true }).parse(doc(hostile));
    expect(parsed.testcase['@_name']).toBe(`a\uFFFDb${'\uFFFD'.repeat(9)}x\uFFFD<&>"'`);
  });

  it('keeps tab, line ends, accents, emoji and everything else XML allows', () => {
    const fine = 'tab\there\nline\r é 漢字 😀 \uE000 \uFFFD';
    expect(escapeXml(fine)).toBe(fine);
    expect(XMLValidator.validate(doc(fine))).toBe(true);
  });

  it('the characters replaced are the ones the Char production refuses', () => {
    expect(onlyXmlChars('<testcase name="a\u0001b"/>')).toBe(false);
    expect(onlyXmlChars('\uD800')).toBe(false);
    expect(onlyXmlChars('😀')).toBe(true);
  });
});
