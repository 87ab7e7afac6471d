/** A booking's short reference for the visitor (derived from its id, shown in mails and answers). */
export const bookingReference = (id: string) => id.replace(/-/g, '').slice(-8).toUpperCase();
