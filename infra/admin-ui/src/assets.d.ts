// esbuild's text loader: a stylesheet imported as its text (infra/admin-ui/admin-app-bundle.ts).
declare module '*.css' {
  const text: string;
  export default text;
}
