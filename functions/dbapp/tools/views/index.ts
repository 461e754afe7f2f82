import { createView } from './createView';
import { deleteView } from './deleteView';
import { getAppViews } from './getAppViews';
import { getView } from './getView';
import { makeViewDefault } from './makeViewDefault';
import { updateView } from './updateView';

export const viewTools = [getAppViews, getView, createView, updateView, makeViewDefault, deleteView];
