import { identityHandler } from '../../shared/lambda/app-handler';

/** The identity Lambda: admin API, connections, the connect page and the OAuth callback (no tools). */
export const handler = identityHandler();
