import { classroomOnly } from './classroom-only.tsx';
import { ExercisesPage as Exercises } from './exercises-page.tsx';
import { JoinPage as Join } from './join-page.tsx';
import { TrainerPage as Trainer } from './trainer-page.tsx';

export const JoinPage = classroomOnly(Join);
export const ExercisesPage = classroomOnly(Exercises);
export const TrainerPage = classroomOnly(Trainer);
