// The policy resource of a cached authorizer answer: every method and path of the caller's stage,
// since API Gateway reuses one cached answer for all of them.

// `arn:aws:execute-api:<region>:<account>:<api id>/<stage>/<METHOD>/<path>` becomes
// `arn:aws:execute-api:<region>:<account>:<api id>/<stage>/*/*` (any method, any path); an ARN without
// a stage is refused rather than widened to every stage of the API.
export function stageWideResource(methodArn: string): string {
  const [api, stage] = methodArn.split('/');
  if (!api?.startsWith('arn:') || api.split(':').length !== 6 || !stage) throw new Error(`Not an execute-api method ARN: ${methodArn}`);
  return `${api}/${stage}/*/*`;
}
