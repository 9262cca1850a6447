// An order as webhooks and reconciliation apply it, with automatic enrolment: in a shop with
// earning_settings.auto_enroll, an order of a platform customer who is not a member yet enrols them first
// (whichever of customers/create and the order arrives first) and then earns. Without it, orders never
// enrol anyone (EARNING-CONTRACT.md).
import { autoEnrollCustomer } from '../customers/customer-service';
import { autoEnrolls, type ShopCatalog } from '../domain/shop';
import type { Platform, PlatformOrder } from '../platform/port';
import { applyOrder, type ApplyOutcome } from './apply-order';

export async function applyOrderEnrolling(shop: ShopCatalog, order: PlatformOrder, platform: Platform): Promise<ApplyOutcome> {
  const outcome = await applyOrder(shop, order);
  if (outcome !== 'not_member' || order.customerId === null || !autoEnrolls(shop.settings)) return outcome;
  // The member's enrolment is dated at the order's payment, so this very order counts.
  const enrolled = await autoEnrollCustomer(shop, order.customerId, platform, new Date(order.processedAt).toISOString());
  return enrolled ? applyOrder(shop, order) : outcome;
}
