// The audit of the staff routes (SURFACES-CONTRACT.md, "/admin/api"): one item per transaction a staff
// request commits, in the partition of the member it changed, saying who (the staff user the ID token named),
// through which route, when, and which writes. It is written in that transaction, so it exists if and only if
// the change committed; it stays with the member (a data request lists it, an erasure deletes it).
import { randomUUID } from 'node:crypto';
import type { StaffRequest } from '../../runtime/acting-staff';
import type { Write } from '../write';
import { defineItem } from './define-item';
import type { ItemKey } from './item-type';

export const STAFF_AUDIT_PREFIX = 'AUDIT#';

export const staffAuditKey = (memberPk: string, at: string, id: string): ItemKey => ({
  pk: memberPk,
  sk: `${STAFF_AUDIT_PREFIX}${at}#${id}`,
});

export const staffAudit = defineItem({
  name: "a staff write's audit (who, which route, which writes)",
  key: staffAuditKey,
  placeholder: ['SHOP#<shop>#C#<platform id>', '<ISO time>', '<id>'],
});

export const staffAuditType = staffAudit.type;

/** A member's partition key: `SHOP#<shop>#C#<platform id>` (items/customer-profile.ts). */
const MEMBER_PK = /^SHOP#.+#C#[^#]+$/;

/** The partition key a write names. */
function pkOf(write: Write): string | null {
  const { Put, Update, Delete, ConditionCheck } = write.request;
  const pk = Put?.Item?.pk ?? Update?.Key?.pk ?? Delete?.Key?.pk ?? ConditionCheck?.Key?.pk;
  return typeof pk === 'string' ? pk : null;
}

/**
 * The audit item of a transaction a staff request commits, in the partition of the first member it writes;
 * null when it writes none (nothing of a member changed: the staff user stays in the request's log line).
 */
export function staffAuditWrite(writes: readonly Write[], staff: StaffRequest, at: string): Write | null {
  const memberPk = writes.map(pkOf).find((pk): pk is string => pk !== null && MEMBER_PK.test(pk));
  if (!memberPk) return null;
  return staffAudit.put('record the staff write', staffAuditKey(memberPk, at, randomUUID()), {
    actor: { type: staff.actor.type, id: staff.actor.id },
    request: staff.request,
    writes: writes.map((write) => write.name),
    at,
  });
}
