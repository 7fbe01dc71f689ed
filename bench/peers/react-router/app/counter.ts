import { createElement, useState } from 'react';
import { counterComponent } from '../../shared/page.ts';

export const Counter = counterComponent({ createElement, useState });
