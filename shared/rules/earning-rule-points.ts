// Moved to shared/domain/earning-rule-points.ts: customers price the signup bonus with it and sit below
// rules in the feature order (docs/code-map.md). This re-export only keeps code written against the old
// path compiling while it is merged; new code imports from shared/domain.
export * from '../domain/earning-rule-points';
