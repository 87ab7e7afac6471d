import { checkDeclaredUpload, objectMismatches } from './uploadRules';

const refusal = (field: string) =>
  expect.objectContaining({ status: 400, errors: [expect.objectContaining({ field })] });

describe('checkDeclaredUpload', () => {
  it('takes a drive file within the bound, in a folder or not', () => {
    expect(() => checkDeclaredUpload({ size: 100, purpose: 'file', folderId: 'f1' }, 100)).not.toThrow();
    expect(() => checkDeclaredUpload({ size: 0, purpose: 'file' }, 100)).not.toThrow();
  });

  it("takes another module's file outside folders", () => {
    expect(() => checkDeclaredUpload({ size: 1, purpose: 'asset' }, 100)).not.toThrow();
    expect(() => checkDeclaredUpload({ size: 1, purpose: 'image', folderId: null }, 100)).not.toThrow();
    expect(() => checkDeclaredUpload({ size: 1, purpose: 'asset', folderId: 'f1' }, 100)).toThrow(refusal('folderId'));
  });

  it('refuses a purpose that is not a module key', () => {
    for (const purpose of ['', 'Asset', '1files', 'a b', 'a/b', `a${'b'.repeat(40)}`]) {
      expect(() => checkDeclaredUpload({ size: 1, purpose }, 100)).toThrow(refusal('purpose'));
    }
    expect(() => checkDeclaredUpload({ size: 1, purpose: `a${'b'.repeat(39)}` }, 100)).not.toThrow();
  });

  it('refuses a file past the bound with 413 file_too_large', () => {
    expect(() => checkDeclaredUpload({ size: 101, purpose: 'file' }, 100)).toThrow(
      expect.objectContaining({ status: 413, code: 'file_too_large' }),
    );
  });
});

describe('objectMismatches', () => {
  it('finds nothing when size and media type match (parameters and case aside)', () => {
    expect(
      objectMismatches({ size: 4, contentType: 'Text/Plain; charset=utf-8' }, { size: 4, contentType: 'text/plain' }),
    ).toEqual([]);
  });

  it('names each difference', () => {
    expect(objectMismatches({ size: 5, contentType: 'text/html' }, { size: 4, contentType: 'text/plain' })).toEqual([
      'it has 5 bytes, 4 were declared',
      'its Content-Type is text/html, text/plain was declared',
    ]);
    expect(objectMismatches({ size: 4, contentType: null }, { size: 4, contentType: 'image/png' })).toEqual([
      'its Content-Type is missing, image/png was declared',
    ]);
  });
});
