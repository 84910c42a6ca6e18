import { createElement, type ComponentProps } from 'react';
import { classroomOnly } from './classroom-only.tsx';
import { ExercisesPage as Exercises } from './exercises-page.tsx';
import { JoinPage as Join } from './join-page.tsx';
import { TrainerPage as Trainer } from './trainer-page.tsx';
import { PushedQuestion } from './pushed-question.tsx';

export const JoinPage = classroomOnly(Join);
export const ExercisesPage = classroomOnly(Exercises);
export const TrainerPage = classroomOnly(Trainer);

export type ClassroomPageProps =
  | ({ page: 'join' } & ComponentProps<typeof Join>)
  | ({ page: 'exercises' } & ComponentProps<typeof Exercises>)
  | { page: 'trainer' }
  /** No page: the question the trainer pushed (shown to a joined trainee only). */
  | { page?: undefined };

/** The classroom's pages behind one lazy import (the app shell's first load stays small). */
export function ClassroomPage(props: ClassroomPageProps) {
  switch (props.page) {
    case 'join':
      return createElement(JoinPage, props);
    case 'exercises':
      return createElement(ExercisesPage, props);
    case 'trainer':
      return createElement(TrainerPage);
    default:
      return createElement(PushedQuestion);
  }
}
