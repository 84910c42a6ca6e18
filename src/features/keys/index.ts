// KeysPage is not re-exported: the app imports keys-page.tsx lazily, with its route.
export {};
