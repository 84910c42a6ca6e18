// ScenariosPage is not re-exported: the app imports scenarios-page.tsx lazily, with its route.
export {};
