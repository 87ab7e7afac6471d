import { IsInt, IsString, Min } from 'class-validator';
import { toDto } from '../../api/http/validate';

/** toDto memoises class-validator's rule lookup (api/http/validate.ts): rules registered later still count. */
describe('validation rules lookup', () => {
  class Base {
    @IsString() name!: string;
  }

  it('applies own and inherited rules, on every call, including classes declared after the first lookup', async () => {
    class Child extends Base {
      @IsInt() @Min(1) size!: number;
    }
    await expect(toDto(Child, { name: 'a', size: 2 }, 'body')).resolves.toMatchObject({ name: 'a', size: 2 });
    for (let i = 0; i < 2; i++) {
      await expect(toDto(Child, { name: 1, size: 0 }, 'body')).rejects.toMatchObject({
        status: 400,
        errors: expect.arrayContaining([
          expect.objectContaining({ field: 'name' }),
          expect.objectContaining({ field: 'size' }),
        ]),
      });
    }
    // A class (and a rule) registered after Child's rules were memoised.
    class Later extends Child {
      @IsString() label!: string;
    }
    await expect(toDto(Later, { name: 'a', size: 2 }, 'body')).rejects.toMatchObject({
      errors: [expect.objectContaining({ field: 'label' })],
    });
    await expect(toDto(Later, { name: 'a', size: 2, label: 'x' }, 'body')).resolves.toBeInstanceOf(Later);
    // A rule added to a class whose rules were memoised (a decorator applied by a module loaded late).
    IsString()(Child.prototype, 'note');
    await expect(toDto(Child, { name: 'a', size: 2 }, 'body')).rejects.toMatchObject({
      errors: [expect.objectContaining({ field: 'note' })],
    });
  });
});
