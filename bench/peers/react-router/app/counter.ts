import { createElement, useState } from 'react';
import { counterComponent } from '../../fixture/page.ts';

export const Counter = counterComponent({ createElement, useState });
