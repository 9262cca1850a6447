/** The service name on every log line, metric and trace. */
export const SERVICE = 'loyalty-api';
