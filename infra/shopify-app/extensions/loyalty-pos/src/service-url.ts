// The service's API URL the extensions call (`{this}/admin/api/...`). Shopify builds the extension from
// this source when the app is deployed, so the URL is a constant of the build: `npm run
// account-extension -- --stack NAME` (or `--service-url URL`) writes the stack's API URL here before
// `shopify app deploy` (docs/deploy.md). The committed value is the local twin's (`npm start`).
export const SERVICE_URL = 'http://127.0.0.1:3000';
