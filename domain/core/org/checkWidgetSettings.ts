import { isUUID } from 'class-validator';
import { badRequest, type FieldError } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { pipelineExists } from './store';
import type { WidgetSetting, WidgetType } from './widgetCatalogue';

/**
 * What each widget setting names and how it is found among the organisation's records. Under the tenant filter,
 * so another organisation's id is found no more than an unknown one. Every setting a type may declare is here
 * (the Record's key type), so none reaches a dashboard unchecked.
 */
const settingTargets: Record<
  WidgetSetting,
  { what: string; exists: (ctx: TenantContext, id: string) => Promise<boolean> }
> = {
  pipelineId: { what: 'pipeline', exists: (ctx, id) => pipelineExists(ctx.em, id) },
};

const invalid = (errors: FieldError[]) => badRequest('validation_failed', 'The request is invalid', errors);

/** 400 for a setting the type requires and lacks (a non-empty string), or one it does not take. */
export function checkSettingNames(def: WidgetType, settings: Record<string, unknown>): void {
  const errors: FieldError[] = [
    ...def.requiredSettings
      .filter((k) => typeof settings[k] !== 'string' || !settings[k])
      .map((k) => ({ field: `settings.${k}`, message: `is required by the ${def.type} widget` })),
    ...Object.keys(settings)
      .filter((k) => !(def.requiredSettings as string[]).includes(k))
      .map((k) => ({ field: `settings.${k}`, message: `is not a setting of the ${def.type} widget` })),
  ];
  if (errors.length) throw invalid(errors);
}

/** 400 for a setting naming no record of the organisation (unknown, malformed or another organisation's), as references in bodies are. */
export async function checkSettingTargets(
  ctx: TenantContext,
  def: WidgetType,
  settings: Record<string, unknown>,
): Promise<void> {
  const errors: FieldError[] = [];
  for (const name of def.requiredSettings) {
    const id = settings[name] as string;
    const target = settingTargets[name];
    if (!isUUID(id) || !(await target.exists(ctx, id)))
      errors.push({ field: `settings.${name}`, message: `is not a ${target.what} of this organisation` });
  }
  if (errors.length) throw invalid(errors);
}
