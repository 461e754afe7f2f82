import type { ShareFileClient } from '../client';

/** Mails a share to recipients with an optional message (ShareFile's Shares/Resend): used on create and on demand. */
export function notifyRecipients(client: ShareFileClient, shareId: string, recipients: string[], o: { message?: string; ccSender: boolean }) {
  return client.resendShare({ ShareId: shareId, Recipients: recipients, ...(o.message ? { Body: o.message } : {}), CcSender: o.ccSender });
}
