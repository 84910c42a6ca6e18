export { JoinPage } from './join-page.tsx';
export { ExercisesPage } from './exercises-page.tsx';
export { TrainerPage } from './trainer-page.tsx';
