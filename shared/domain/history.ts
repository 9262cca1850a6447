// Earning and reward history entries as stored on the customer's partition.

export type EarningStatus = 'pending' | 'approved' | 'rejected';
export type RewardStatus = 'active' | 'used' | 'expired';

export interface EarningEntry {
  id: string;
  earning_rule_id: string | null;
  action: string;
  points: number;
  base_points: number;
  points_multiplier: number;
  status: EarningStatus;
  order_id: string | null;
  order_number: string | null;
  points_due_at: string | null;
  points_given_at: string | null;
  points_expiry_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RewardEntry {
  id: string;
  reward_id: string;
  reward_name: string;
  reward_discount_type: string;
  points_spent: number;
  discount_code: string;
  status: RewardStatus;
  is_refunded: boolean;
  discount_code_redeemed_at: string | null;
  redeemed_at: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}
