/** The callback inbox's names and paths, without zod: the first page reads them. */
/** An inbox's name: what the server accepts in `/callbacks/<inbox>`. */
export const INBOX_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The inbox's paths, relative to the console's origin. */
export const inboxPaths = (inbox: string) => ({
  inbox: `/callbacks/${inbox}`,
  events: `/callbacks/${inbox}/events`,
  list: `/callbacks/${inbox}/list`,
});
